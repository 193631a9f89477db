// The one argument parser of the measuring scripts (bin/bench/*): node's parseArgs, strict (an
// unknown or misspelt option stops the run instead of measuring the default), `--help` printing
// the script's usage line.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function readArgs<const O extends Options>(usage: string, options: O) {
  if (process.argv.includes('--help')) {
    console.log(`usage: ${usage}`);
    process.exit(0);
  }
  try {
    return parseArgs({ options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: ${usage}`);
    process.exit(2);
  }
}

/** An option's value as a number; a value that is not one stops the run with `name` in the message. */
export function numberArg(value: string | undefined, name: string): number;
export function numberArg(value: string | undefined, name: string, optional: 'optional'): number | undefined;
export function numberArg(value: string | undefined, name: string, optional?: 'optional'): number | undefined {
  if (value === undefined && optional) return undefined;
  const number = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isFinite(number)) {
    console.error(`--${name} must be a number, not ${value === undefined ? 'missing' : JSON.stringify(value)}`);
    process.exit(2);
  }
  return number;
}
