/**
 * `npm run demo:web`: builds build/flights-3m.oixk and its format 2 copy if missing (the
 * importer of npm start) and the browser bundles if they are stale, then serves
 * the faceting demo on 127.0.0.1 and prints its URL. PORT picks the port
 * (default: any free one).
 */
import { bundleDirectory } from '../scripts/bundle-directory.js'
import { ensureDemoFiles } from './flights.js'
import { startServer } from './static-server.js'

await ensureDemoFiles()
const server = await startServer(await bundleDirectory(['oixk-reader']), Number(process.env.PORT ?? 0))
console.log(`oixk demo: ${server.origin}/`)
console.log(`  without WebAssembly (Content-Security-Policy forbids it): ${server.origin}/strict/`)
console.log('  Ctrl-C stops the server.')
