// Starts the embedded cluster on a directory as the CLI does (left to others when it stops), prints
// its URL, and stops when a line arrives on stdin: the short-lived owner of db/embedded.int.test.ts.
import { startEmbeddedPostgres } from '@/db/embedded';

const database = await startEmbeddedPostgres(process.argv[2], (line) => process.stderr.write(`${line}\n`), { leaveToOthers: true });
process.stdout.write(`${database.url}\n`);
process.stdin.once('data', async () => {
  await database.stop();
  process.exit(0);
});
