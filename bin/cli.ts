// npm run cli -- <command>: management commands (CONTRACT §2). One JSON document on stdout.
import { ZodError } from 'zod';
import { parseArgs } from '@/lib/cli/args';
import { BOOLEAN_FLAGS, findCommand } from '@/lib/cli/commands';
import { helpFor, wantsHelp } from '@/lib/cli/help';
import { describeZodError } from '@/lib/http/zod-message';
import { boot, type Runtime } from '@/lib/runtime/boot';

function messageOf(error: unknown): string {
  if (error instanceof ZodError) return describeZodError(error);
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<number> {
  let runtime: Runtime | undefined;
  try {
    const args = parseArgs(process.argv.slice(2), BOOLEAN_FLAGS);
    // Help needs no database: answered before anything starts.
    if (wantsHelp(args)) {
      process.stdout.write(JSON.stringify(helpFor(args)) + '\n');
      return 0;
    }
    const command = findCommand(args);
    runtime = await boot({ maintenance: false, shortLived: true });
    const result = await command(runtime.ctx, args);
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } catch (error) {
    process.stdout.write(JSON.stringify({ error: messageOf(error) }) + '\n');
    return 1;
  } finally {
    await runtime?.shutdown();
  }
}

main().then((code) => process.exit(code));
