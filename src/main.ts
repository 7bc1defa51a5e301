import { runCommandLine } from './cli/run';

/*
 * The program: `forge …` from `npm start` (node dist/main.js serve), `npx forge` (bin/forge.mjs)
 * and the tests (test/support/node-entry.ts: npm test's compiled main.js, or this file through
 * tsx). The command line lives in src/cli/.
 */
runCommandLine(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
