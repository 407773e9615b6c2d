/** Every CLI command, in help order. Add a command by importing it and adding it to the list. */
import type { Command } from 'commander';
import type { CliRuntime } from '../runtime';
import { register as doctor } from './doctor';
import { register as serve } from './serve';

export const commands: ((program: Command, rt: CliRuntime) => void)[] = [
  doctor,
  serve,
];
