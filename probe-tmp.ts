import { resolveTree } from '/work/main/lib/catalog/tree';
const n = 10000; const m = new Map();
for (let i = n - 1; i >= 0; i--) m.set(`n${i}`, { id: `n${i}`, parent: i ? `n${i-1}` : null });
let t = Date.now(); const r = resolveTree(m); console.log(Date.now() - t, r.paths.get('n9999')!.length, process.memoryUsage().heapUsed/1e6);
const m2 = new Map(); for (let i = 0; i < 100000; i++) m2.set(`n${i}`, { id: `n${i}`, parent: i ? `n${i-1}` : null });
t = Date.now(); try { const r2 = resolveTree(m2); console.log('100k', Date.now() - t);} catch (e) { console.log('100k fail', String(e)); }
