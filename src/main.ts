import { runCommandLine } from './cli/run';

/*
 * The program: `forge …` from `npm start` (node dist/main.js serve), `npx forge` (bin/forge.mjs)
 * and the tests (node --import tsx src/main.ts). The command line lives in src/cli/.
 */
runCommandLine(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
