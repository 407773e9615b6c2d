/** Every CLI command, in help order. Add a command by importing it and adding it to the list. */
import type { Command } from 'commander';
import type { CliRuntime } from '../runtime';
import { register as doctor } from './doctor';
import { register as serve } from './serve';
import { register as indexCmd } from './index-cmd';
import { register as search } from './search';
import { register as get } from './get';
import { register as mcp } from './mcp';
import { register as chat } from './chat';
import { register as llm } from './llm';
import { register as models } from './models';
import { register as sessions } from './sessions';
import { register as qmd } from './qmd';
import { register as connect } from './connect';
import { register as openclawBridge } from './openclaw-bridge';

export const commands: ((program: Command, rt: CliRuntime) => void)[] = [
  doctor,
  indexCmd,
  search,
  get,
  mcp,
  chat,
  llm,
  models,
  sessions,
  qmd,
  connect,
  openclawBridge,
  serve,
];
