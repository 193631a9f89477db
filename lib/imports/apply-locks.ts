// Advisory-lock classes: "this shop's imports are being applied" (held by the applier's session)
// and, inside each apply transaction, the same claim again, so that even if the session lock were
// lost with its idle connection no two transactions apply a shop's imports at once. The admin
// app finds a running import's progress through the second.
export const SHOP_IMPORT_LOCK = 7_301;
export const SHOP_APPLY_TX_LOCK = 7_302;
