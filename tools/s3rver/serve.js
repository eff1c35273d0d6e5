// Starts s3rver (npm, a second S3 implementation for the object storage
// tests: docs/object-storage.md) on 127.0.0.1 with bucket `lake`, and writes
// its port to PORT_FILE once it listens.
//   node tools/s3rver/serve.js DATA_DIR PORT_FILE
'use strict';
const fs = require('fs');
const S3rver = require('s3rver');

const [dir, portFile] = process.argv.slice(2);
if (!dir || !portFile) {
  console.error('usage: node serve.js DATA_DIR PORT_FILE');
  process.exit(2);
}
new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true, configureBuckets: [{ name: 'lake' }] })
  .run()
  .then(address => fs.writeFileSync(portFile, String(address.port)))
  .catch(err => {
    console.error('s3rver did not start: ' + err);
    process.exit(1);
  });
