/**
 * The fake backend, as the rest of the package sees it: every file outside controls/ imports it
 * from here (the service worker from without-admin.ts, this door less the admin API). Its rooms:
 * clock/, faults/, journal/, pets/, sandboxes/, secrets/, admin/ (the admin API and its document),
 * and at the root one world's controls, the worlds, and the layer sets the composition root takes.
 */
export * from './without-admin.ts';
export { adminLayers, controlLayers } from './admin/admin-layers.ts';
