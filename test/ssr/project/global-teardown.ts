/** After the run, before webServer stops the command: every test's sandbox was deleted, and none of the shop's calls landed in the main world (its journal holds only webServer's /healthz probes). */
import type { FullConfig } from '@playwright/test';
import type { PetstoreOptions, RecordedExchange } from 'petstore-service/playwright';

export default async function globalTeardown(config: FullConfig<PetstoreOptions>): Promise<void> {
  const { petstoreUrl, petstoreAdminToken } = config.projects[0]!.use;
  const get = async <T>(path: string) =>
    (await (await fetch(`${petstoreUrl}/__admin${path}`, { headers: { authorization: `Bearer ${petstoreAdminToken}` } })).json()) as T[];
  const open = await get<{ id: string }>('/sandboxes');
  const main = (await get<RecordedExchange>('/requests')).filter((exchange) => exchange.path.startsWith('/v1/'));
  const problems = [
    ...(open.length ? [`${open.length} sandbox(es) left open`] : []),
    ...(main.length ? [`${main.length} of the shop's call(s) in the main world's journal`] : []),
  ];
  if (problems.length) throw new Error(`ssr project: ${problems.join('; ')}`);
}
