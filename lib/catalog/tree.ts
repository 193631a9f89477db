/** A category of a shop's tree as readers use it: where it sits (`path` from the root, ids) and how it is shown. */
export type CategoryNode = { id: string; name: string; parent: string | null; url: string | null; alias: string | null; path: string[]; depth: number; known: boolean };

export type TreeLink = { id: string; parent: string | null };

export type ResolvedTree = {
  // Ids from the root down to the node, through known nodes; a node whose parent is unknown
  // (or sits on a cycle) starts its own path.
  paths: Map<string, string[]>;
  // Nodes on a parent cycle, each with the cycle as it was found (a → b → a).
  cycles: Map<string, string[]>;
};

/** Resolves every node's path, iteratively so that any depth works. */
export function resolveTree(nodes: Map<string, TreeLink>): ResolvedTree {
  const paths = new Map<string, string[]>();
  const cycles = new Map<string, string[]>();
  const onStack = new Map<string, number>();

  for (const start of nodes.keys()) {
    if (paths.has(start) || cycles.has(start)) continue;
    const stack: string[] = [];
    let current: string | null = start;
    while (current !== null && nodes.has(current) && !paths.has(current) && !cycles.has(current)) {
      const seenAt = onStack.get(current);
      if (seenAt !== undefined) {
        const loop = stack.slice(seenAt);
        const described = [...loop, current];
        for (const id of loop) cycles.set(id, described);
        break;
      }
      onStack.set(current, stack.length);
      stack.push(current);
      current = nodes.get(current)!.parent;
    }
    for (let i = stack.length - 1; i >= 0; i--) {
      const id = stack[i];
      onStack.delete(id);
      if (cycles.has(id)) continue;
      const parent = nodes.get(id)!.parent;
      const above = parent !== null && paths.get(parent);
      paths.set(id, above ? [...above, id] : [id]);
    }
  }
  return { paths, cycles };
}
