/**
 * Where the suites write: full runs into bench/results (committed), quick
 * runs and scratch files under bench/results/tmp (ignored by git). Kept apart
 * from common.ts so the report script needs nothing of the codec.
 */
export const RESULTS_DIR = 'bench/results'
export const QUICK_RESULTS_DIR = 'bench/results/tmp/quick'
/** Scratch files (Parquet, NDJSON) the suites write and reuse. */
export const SCRATCH_DIR = 'bench/results/tmp/files'
