// The import pipeline: how an accepted import's body travels from intake to storage in one
// process, and what is worked out ahead on the way. Its stages, in order (docs/architecture.md):
//   intake scan    scan-thread.ts, scan-worker.ts: a large body checked on a thread of its own
//   stored form    body-codec.ts: the body compressed for storage, and back
//   hand-off       handoff.ts: the body and its scan kept for the applier; arrivals announced
//   read-ahead     read-ahead.ts: the shop's next two imports read while one is applied
//   preparing      prepare-ahead.ts, prepare-worker.ts: their items' rows made on a thread of their own
//   known states   known-states.ts: each shop's product states as last stored, followed per commit
//   storing        store.ts: storage (lib/catalog) given the states and the prepared rows
//   waking         shop-waker.ts: each shop's applier run when its imports arrive
// Code outside this folder imports from here only (eslint.config.mjs).

export { scanOnThread, startScanThread } from './scan-thread';
export { compressBody, decompressBody, type BodyEncoding } from './body-codec';
export { announceArrival, handOver, setHandoffCourier, type Courier, type HandedBody, type StoredForm } from './handoff';
export { importBody, ReadingAhead, type PendingImports, type ReadAhead } from './read-ahead';
export { startPreparing } from './prepare-ahead';
export { noteCommitted, notCommitted } from './known-states';
export { storeAvailability, storeProducts } from './store';
export { shopWaker } from './shop-waker';
