// Runs a wasm32-wasip1 command module under node's WASI, as an
// `onnxcc verify --exec-wrapper`: node wasi-run.mjs PROGRAM.wasm ARGS...
// The host's root is preopened so the program's absolute paths resolve;
// the exit code is the program's.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv, exit } from 'node:process';

const wasi = new WASI({
  version: 'preview1',
  args: argv.slice(2),
  env: {},
  preopens: { '/': '/' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(argv[2]));
// wasiImport, not getImportObject(): the latter is newer than Debian's node 18.
const instance = await WebAssembly.instantiate(module, {
  wasi_snapshot_preview1: wasi.wasiImport,
});
exit(wasi.start(instance));
