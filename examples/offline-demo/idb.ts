/** The IndexedDB storage as a browser module, so a page can write to the worker's database directly. */
export { idbPetStorage } from 'petstore-service/idb';
