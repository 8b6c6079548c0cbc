/** The up-to-date browser bundles for tests (see scripts/bundle-directory.ts). */
export { BUNDLE_INPUTS, BUNDLE_NAMES, type BundleName, bundleDirectory, bundleFiles, LAZY_CHUNK_FILES, ROOT } from '../../scripts/bundle-directory.js'
