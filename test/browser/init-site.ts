/** The site `petstore-service init` writes, as the browser suites drive it: written into a served folder by the built command, and what its page shows. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { serveStatic } from './browser.ts';

/** A site init wrote into `<root>/shop`, served from `<root>` so it lives under a sub-path. */
export interface ServedSite {
  /** The site's own URL, `<origin>/shop/`. */
  readonly site: string;
  readonly origin: string;
  readonly server: Server;
  /** Every path the server was asked for, in order. */
  readonly requested: string[];
  /** Runs the built `petstore-service init shop <args>` in the served folder again. */
  init(...args: string[]): Promise<unknown>;
  /** Stops the server and deletes the folder. */
  close(): void;
}

/**
 * Runs the built `petstore-service init shop <args>` in a new folder and serves that folder.
 *
 * @example
 * const { site, close } = await servedSite('--generate', '25:7');
 * await page.goto(site);
 */
export async function servedSite(...args: string[]): Promise<ServedSite> {
  const root = mkdtempSync(join(tmpdir(), 'petstore-init-site-'));
  const init = (...again: string[]) => promisify(execFile)(process.execPath, [resolve('dist/cli/index.js'), 'init', 'shop', ...again], { cwd: root });
  await init(...args);
  const { server, origin, requested } = await serveStatic(root);
  return {
    site: `${origin}/shop/`,
    origin,
    server,
    requested,
    init,
    close() {
      server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the page says the worker answers it: what a user waits for before using the page.
 *
 * @example
 * await page.goto(site);
 * await ready(page);
 */
export async function ready(page: Page): Promise<void> {
  await page.getByText('Ready: ').waitFor({ timeout: 20_000 });
}

/**
 * The names in the pets table, top to bottom.
 *
 * @example
 * await expect.poll(() => petNames(page)).toEqual(['Rex']);
 */
export const petNames = (page: Page): Promise<string[]> => page.locator('#pets tr td:nth-child(2)').allTextContents();

/**
 * Adds a pet named `name` with the page's form.
 *
 * @example
 * await addPet(page, 'Rex');
 */
export async function addPet(page: Page, name: string): Promise<void> {
  await page.fill('#add input[name=name]', name);
  await page.click('#add button');
}
