#!/usr/bin/env node
// The toolsift command. The only file that touches argv and the process exit code.
import module from "node:module";
import { processIO } from "./io.js";
import { runCli } from "./run-cli.js";
import { tuneV8 } from "./tune-v8.js";

// Node 22.1+ keeps compiled code between runs, here for the command modules loaded below (the
// bin enables it before anything loads); older Node has no such call
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// `toolsift rank … | head` closes the pipe early: the reader has what it wanted, so stop quietly
// instead of dying on an unhandled EPIPE with a stack trace
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

// before the command's modules load and run (a one-shot search optimises less eagerly)
tuneV8(process.argv[2]);
process.exitCode = await runCli(process.argv.slice(2), processIO);
