/**
 * Excalidraw loads its fonts from EXCALIDRAW_ASSET_PATH, else from a CDN. This IDE runs offline:
 * the build copies the fonts into the app (`excalidraw-assets/fonts`, see theia-app/esbuild.mjs),
 * and this module, imported before Excalidraw, points Excalidraw at them.
 */
(window as unknown as { EXCALIDRAW_ASSET_PATH: string }).EXCALIDRAW_ASSET_PATH = new URL('excalidraw-assets/', document.baseURI).href;
