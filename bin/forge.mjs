#!/usr/bin/env node
// `npx forge …` from the checkout: Forge's command line (src/main.ts), run through tsx as `npm start` does.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
