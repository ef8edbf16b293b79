/**
 * Vitest setup: a test tagged with a system part (redis, postgres, chromium, netns, curl, promtool, podman) that
 * this machine lacks fails first thing, naming the part and the command that installs it. Without
 * CI such tests are skipped before they get here (vitest.config.ts), so this only shows under CI,
 * where every part must be installed; it also covers a suite whose own hooks would fail less clearly.
 */
import { beforeEach } from 'vitest';
import { PART_NAMES, requirePart, type PartName } from './system-parts.ts';

beforeEach(({ task }) => {
  for (const tag of task.tags ?? []) if ((PART_NAMES as readonly string[]).includes(tag)) requirePart(tag as PartName);
});
