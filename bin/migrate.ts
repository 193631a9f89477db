// npm run db:migrate: applies the committed migrations (the server also does this at start).
import { boot } from '@/lib/runtime/boot';

const runtime = await boot({ maintenance: false });
await runtime.shutdown();
process.stderr.write('[vitrine] migrations applied\n');
