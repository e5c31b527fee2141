#!/usr/bin/env node
// The installed entry point: run the TypeScript sources through tsx (design.md: no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main/cli.ts');
process.exitCode = await main(process.argv.slice(2));
