/**
 * The dashboard's files as strings, which the admin API serves with no file system (Workers and a
 * browser have none). What is written here is only the stand-in tsc reads: the package's build and
 * vitest load in its place the module scripts/dashboard-assets.ts makes from controls/dashboard/client/
 * (the script bundled and minified), so the page is always the client's as it is now.
 */

/**
 * The page's four files: its HTML shell, its script (one ES module), its styles and its icon.
 *
 * @example
 * const { html, script, styles, favicon }: DashboardAssets = DASHBOARD_ASSETS;
 */
export interface DashboardAssets {
  readonly html: string;
  readonly script: string;
  readonly styles: string;
  readonly favicon: string;
}

/**
 * The files the build put here; from sources loaded without that step, a page that says so.
 *
 * @example
 * new Response(DASHBOARD_ASSETS.html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
 */
export const DASHBOARD_ASSETS: DashboardAssets = {
  html:
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pet Store fake backend</title></head><body><p>' +
    'The dashboard is bundled when petstore-service is built (npm run build): these sources were loaded without that step.</p></body></html>',
  script: '',
  styles: '',
  favicon: '',
};
