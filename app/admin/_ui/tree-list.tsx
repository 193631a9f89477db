'use client';

import type { ReactNode } from 'react';
import type { TreeNode } from '@/lib/catalog/browse-trees';

type Branch = { node: TreeNode; children: Branch[] };

/** Nodes in path order made into branches: a node hangs under the last node of its path before it. */
export function branchesOf(nodes: TreeNode[]): Branch[] {
  const byId = new Map<string, Branch>();
  const roots: Branch[] = [];
  for (const node of nodes) {
    const branch = { node, children: [] };
    byId.set(node.id, branch);
    const parent = node.path.length > 1 ? byId.get(node.path[node.path.length - 2]) : undefined;
    (parent ? parent.children : roots).push(branch);
  }
  return roots;
}

/** "Shoes › Winter boots": a node named by its path, so equal names stay apart. */
export function pathName(nodes: Map<string, TreeNode>, node: TreeNode): string {
  return node.path.map((id) => nodes.get(id)?.name ?? id).join(' › ');
}

/**
 * A tree as nested lists; branches open and close with the keyboard (<details>). `render` draws a
 * node's own line.
 */
export function TreeList({ nodes, render, openDepth = 1, label }: { nodes: TreeNode[]; render: (node: TreeNode) => ReactNode; openDepth?: number; label: string }) {
  const draw = (branches: Branch[]): ReactNode => (
    <ul className="space-y-0.5">
      {branches.map(({ node, children }) => (
        <li key={node.id} className="pl-3">
          {children.length ? (
            <details open={node.depth < openDepth}>
              <summary className="cursor-pointer py-0.5">{render(node)}</summary>
              {draw(children)}
            </details>
          ) : (
            <div className="py-0.5 pl-4">{render(node)}</div>
          )}
        </li>
      ))}
    </ul>
  );
  return (
    <nav aria-label={label} className="-ml-3 text-sm">
      {draw(branchesOf(nodes))}
    </nav>
  );
}
