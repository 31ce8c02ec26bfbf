// Runs the Khronos glTF-Validator on one .gltf / .glb file and prints its report's counts as
// one JSON line ({"errors": N, "warnings": N, "infos": N, "messages": [...], "info_codes": [...]}:
// messages are the errors' and warnings', info_codes each information's code and JSON pointer). Exit 0 when the file was
// validated (whatever it found), 2 when the validator cannot be loaded or the file read.
// Usage: node gltf_validate.js <node_modules folder holding gltf-validator> <file>
const path = require('path');
const fs = require('fs');
let validator;
try {
  validator = require(path.join(process.argv[2], 'gltf-validator'));
} catch (e) {
  console.error('gltf-validator not found under ' + process.argv[2]);
  process.exit(2);
}
const file = process.argv[3];
const bytes = new Uint8Array(fs.readFileSync(file));
const folder = path.dirname(file);
validator.validateBytes(bytes, {
  uri: path.basename(file),
  externalResourceFunction: (uri) => new Promise((resolve, reject) => {
    fs.readFile(path.join(folder, decodeURIComponent(uri)), (err, data) => err ? reject(err.toString()) : resolve(new Uint8Array(data)));
  }),
}).then((report) => {
  const messages = report.issues.messages.filter((m) => m.severity <= 1).map((m) => `${m.code} ${m.pointer || ''}: ${m.message}`);
  const info_codes = report.issues.messages.filter((m) => m.severity === 2).map((m) => `${m.code} ${m.pointer || ''}`);
  console.log(JSON.stringify({errors: report.issues.numErrors, warnings: report.issues.numWarnings,
                              infos: report.issues.numInfos, messages, info_codes}));
}, (error) => {
  console.error(String(error));
  process.exit(2);
});
