#!/usr/bin/env node
// The toolsift command. The only file that touches argv and the process exit code.
import { processIO } from "./io.js";
import { runCli } from "./run-cli.js";

process.exitCode = await runCli(process.argv.slice(2), processIO);
