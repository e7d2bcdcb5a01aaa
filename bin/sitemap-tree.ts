#!/usr/bin/env node
import { main } from "../cli.ts";
import { runAsCommand } from "../src/cli/_io.ts";
await runAsCommand(main);
