/** Every CLI command, in help order. Add a command by adding its module here. */
import type { Command } from 'commander';
import type { CliRuntime } from '../runtime';
import { register as doctor } from './doctor';

export const commands: ((program: Command, rt: CliRuntime) => void)[] = [doctor];
