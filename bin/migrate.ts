// npm run db:migrate: applies the committed migrations (the server also does this at start).
import { boot } from '@/lib/runtime/boot';
import { log } from '@/lib/runtime/log';

const runtime = await boot({ maintenance: false });
await runtime.shutdown();
log('migrations applied');
