#!/usr/bin/env node
// The toolsift command. The only file that touches argv and the process exit code.
import { processIO } from "./io.js";
import { runCli } from "./run-cli.js";

// `toolsift rank … | head` closes the pipe early: the reader has what it wanted, so stop quietly
// instead of dying on an unhandled EPIPE with a stack trace
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await runCli(process.argv.slice(2), processIO);
