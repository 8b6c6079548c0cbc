// tsc drops the executable bit; the `oixk` bin needs it when run directly.
import { chmodSync } from 'node:fs'
chmodSync(new URL('../dist/cli/main.js', import.meta.url), 0o755)
