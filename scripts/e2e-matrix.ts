// Writes the end-to-end matrix's files from its table (tests/e2e/matrix.ts): every cell's file,
// and removes a generated file the table no longer has. `npm run e2e-matrix` writes; with `-- --check`
// it only lists what differs and exits 1 if anything does (tests/unit/e2e-matrix.test.ts checks the
// same in `npm test`).
import fs from "node:fs";
import path from "node:path";
import { looksGenerated, matrixFiles } from "../tests/e2e/matrix.ts";

const DIR = path.resolve(import.meta.dirname, "../tests/e2e");

export interface MatrixDrift {
  /** Files the table generates that are missing or differ on disk. */
  stale: string[];
  /** Generated files on disk that the table no longer generates. */
  extra: string[];
}

export function matrixDrift(dir: string = DIR): MatrixDrift {
  const wanted = matrixFiles();
  const stale = [...wanted].filter(([name, text]) => !fs.existsSync(path.join(dir, name)) || fs.readFileSync(path.join(dir, name), "utf8") !== text);
  const extra = fs
    .readdirSync(dir)
    .filter((name) => !wanted.has(name) && name.endsWith(".ts") && looksGenerated(name, fs.readFileSync(path.join(dir, name), "utf8")))
    .sort();
  return { stale: stale.map(([name]) => name), extra };
}

/** Makes `dir` hold what the table generates: writes each missing or differing file, removes each generated file the table no longer has. */
export function writeMatrix(dir: string = DIR): MatrixDrift {
  const drift = matrixDrift(dir);
  const wanted = matrixFiles();
  for (const name of drift.stale) fs.writeFileSync(path.join(dir, name), wanted.get(name)!);
  for (const name of drift.extra) fs.rmSync(path.join(dir, name));
  return drift;
}

function main(argv: readonly string[]): number {
  if (argv.includes("--check")) {
    const drift = matrixDrift();
    for (const name of drift.stale) console.log(`differs from the table: tests/e2e/${name}`);
    for (const name of drift.extra) console.log(`not in the table: tests/e2e/${name}`);
    return drift.stale.length + drift.extra.length === 0 ? 0 : 1;
  }
  const drift = writeMatrix();
  for (const name of drift.stale) console.log(`wrote tests/e2e/${name}`);
  for (const name of drift.extra) console.log(`removed tests/e2e/${name}`);
  console.log(`${matrixFiles().size} files from tests/e2e/matrix.ts, ${drift.stale.length} written, ${drift.extra.length} removed`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) process.exitCode = main(process.argv.slice(2));
