/**
 * The dashboard's script, bundled by esbuild into the asset `GET /__admin/` loads (a first version: the shell only).
 *
 * The files of the page, for the server that serves them: this entry (bundled as one ES module),
 * `controls/dashboard/client/dashboard.css` (its styles, served as they are) and
 * `controls/dashboard/client/index.html` (the HTML shell, owned here: it loads `dashboard.js`,
 * `dashboard.css` and `favicon.svg` by URLs relative to `/__admin/`, with no inline script or style,
 * so the page runs under `script-src 'self'; style-src 'self'`).
 */

const root = document.getElementById('dashboard');
if (root) {
  const heading = document.createElement('h1');
  heading.textContent = 'Pet Store fake backend';
  root.replaceChildren(heading);
}
