import type { CollectionRules, RuleGroup } from '@/lib/collections/schemas';

/** One group of rules in words: "Boots or Axes · brand Nordkap · 20–100 · on sale · up to 12". */
export function groupSummary(group: RuleGroup, categoryName: (id: string) => string = (id) => id): string {
  const parts: string[] = [];
  if (group.categories?.length) parts.push(group.categories.map(categoryName).join(' or '));
  if (group.brands?.length) parts.push(`brand ${group.brands.join(' or ')}`);
  if (group.price_min !== undefined && group.price_max !== undefined) parts.push(`price ${group.price_min}–${group.price_max}`);
  else if (group.price_min !== undefined) parts.push(`price from ${group.price_min}`);
  else if (group.price_max !== undefined) parts.push(`price up to ${group.price_max}`);
  for (const [name, values] of Object.entries(group.params ?? {})) parts.push(`${name} ${values.join(' or ')}`);
  if (group.ids?.length) parts.push(`${group.ids.length === 1 ? 'product' : 'products'} ${group.ids.slice(0, 3).join(', ')}${group.ids.length > 3 ? ` and ${group.ids.length - 3} more` : ''}`);
  if (group.discount === true) parts.push('on sale');
  if (group.discount === false) parts.push('not on sale');
  if (group.exclude_ids?.length) parts.push(`except ${group.exclude_ids.length} ${group.exclude_ids.length === 1 ? 'product' : 'products'}`);
  if (group.limit !== undefined) parts.push(`up to ${group.limit}`);
  return parts.length ? parts.join(' · ') : 'every product in stock';
}

export function rulesSummary(rules: CollectionRules, categoryName?: (id: string) => string): string[] {
  return rules.groups.map((group) => groupSummary(group, categoryName));
}
