export * from './shops';
export * from './staff';
export * from './imports';
export * from './catalog';
export * from './mail';
export * from './subscriptions';
export * from './collections';
