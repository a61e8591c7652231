// Validate .glb files with the Khronos glTF validator. Prints one summary line per file
// ("FILE errors=N warnings=N infos=N") and the first messages of any file with errors;
// exits 1 if any file has an error. Usage: node validate.mjs FILE...
import { readFileSync } from "node:fs";
import validator from "gltf-validator";

let failed = false;
for (const file of process.argv.slice(2)) {
  const report = await validator.validateBytes(new Uint8Array(readFileSync(file)), {
    maxIssues: 100,
  });
  const n = report.issues;
  console.log(`${file} errors=${n.numErrors} warnings=${n.numWarnings} infos=${n.numInfos}`);
  if (n.numErrors > 0) {
    failed = true;
    for (const m of n.messages.filter((m) => m.severity === 0).slice(0, 10)) {
      console.log(`  ${m.code} ${m.pointer ?? ""}: ${m.message}`);
    }
  }
}
process.exit(failed ? 1 : 0);
