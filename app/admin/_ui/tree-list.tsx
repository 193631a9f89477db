'use client';

import { useState, type ReactNode } from 'react';
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
 * A tree as nested lists; a branch opens and closes with its own button (keyboard and screen
 * readers alike), beside the node's line that `render` draws (which may hold buttons of its own).
 */
export function TreeList({ nodes, render, openDepth = 1, label }: { nodes: TreeNode[]; render: (node: TreeNode) => ReactNode; openDepth?: number; label: string }) {
  const [toggled, setToggled] = useState<Set<string>>(new Set());
  const isOpen = (node: TreeNode) => (node.depth < openDepth) !== toggled.has(node.id);
  const toggle = (id: string) => {
    const next = new Set(toggled);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setToggled(next);
  };
  const draw = (branches: Branch[]): ReactNode => (
    <ul className="space-y-0.5">
      {branches.map(({ node, children }) => (
        <li key={node.id} className="pl-3">
          <div className="flex items-start gap-1 py-0.5">
            {children.length ? (
              <button type="button" aria-expanded={isOpen(node)} aria-label={`${isOpen(node) ? 'Close' : 'Open'} ${node.name}`} onClick={() => toggle(node.id)} className="w-4 shrink-0 text-slate-700">
                {isOpen(node) ? '▾' : '▸'}
              </button>
            ) : (
              <span className="w-4 shrink-0" />
            )}
            <span className="min-w-0">{render(node)}</span>
          </div>
          {children.length > 0 && isOpen(node) && draw(children)}
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
