import { mulberry32 } from './random';
import { leafCategories, syntheticCategories, syntheticItem, syntheticLocations } from './synthetic-catalog';

// Catalog shapes for the benchmarks (`--shape`): the synthetic catalog the code was first tuned on,
// and catalogs shaped as real feeds are, so no path is fast only for one catalog. Each is
// deterministic: the same n always gives the same item, bytes included.
//
// - synthetic: lib/bench/synthetic-catalog.ts (items of ~1.1 KB, 10–20 params without units).
// - retail: a department store's feed: items of ~1.7 KB, 10–20 params with unit, priority and
//   searchable, many numeric values with decimals, every niche section in use, long descriptions
//   from a pool, ~2,000 categories, hundreds of brands (Zipf), a third of products with 1–12 offers,
//   30 % of those with their own price, merchants on 10 %, oldprice on 25 %, variant groups.
// - magento: as the Magento plugin sends (PHP json_encode): numeric ids, `available` a stock count,
//   nulls for empty fields, `\/` for every slash and `\uXXXX` for every character past ASCII, no
//   params on half the items, HTML descriptions.
// - shopware: as the Shopware plugin sends: 32-hex ids, `available` a stock count, params on half
//   the items, properties with units, offers per warehouse.
// - wide-text: long HTML descriptions (2–6 KB) with escaped quotes, line breaks and emoji;
//   Cyrillic, Greek and CJK names and values; JSON with spaces after `:` and `,` (Python's dumps).

export type TreeNode = { id: string | number; name: string; parent: string | number | null; url?: string; type?: string };
export type ShapeItem = Record<string, unknown>;

export type CatalogShape = {
  name: ShapeName;
  categories: TreeNode[];
  locations: TreeNode[];
  /** The n-th item (0-based). */
  item(n: number): ShapeItem;
  /** The n-th item's id as sent in PATCH and DELETE bodies. */
  sentId(n: number): string | number;
  /** The n-th item's id as stored (a string). */
  storedId(n: number): string;
  /** A body's JSON text, as this shape's client writes it. */
  stringify(value: unknown): string;
  /** Listing filters a storefront of this shop sends: leaf and inner categories, brands, params, cities. */
  facets: { categories: string[]; topCategories: string[]; brands: string[]; params: [name: string, values: string[]][]; cities: string[]; words: string[] };
};

export const SHAPE_NAMES = ['synthetic', 'retail', 'magento', 'shopware', 'wide-text'] as const;
export type ShapeName = (typeof SHAPE_NAMES)[number];

export function isShapeName(name: string): name is ShapeName {
  return (SHAPE_NAMES as readonly string[]).includes(name);
}

type Random = () => number;
const pick = <T>(rnd: Random, list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
/** Zipf-like: small indexes far more often (a few brands make most of a catalog). */
const skewed = (rnd: Random, count: number) => Math.min(count - 1, Math.floor(count * rnd() * rnd() * rnd()));
const cents = (value: number) => Math.round(value * 100) / 100;

// ---- shared vocabulary ----------------------------------------------------------------------

const DEPARTMENTS = ['Women', 'Men', 'Kids', 'Home', 'Kitchen', 'Electronics', 'Beauty', 'Sports', 'Toys', 'Books', 'Auto', 'Pets', 'Garden'];
const NOUNS = ['Jacket', 'Dress', 'Sneakers', 'Blender', 'Kettle', 'Headphones', 'Lamp', 'Sofa', 'Backpack', 'Watch', 'Cream', 'Shampoo', 'Drill', 'Tent', 'Ball', 'Puzzle', 'Novel', 'Tyre', 'Leash', 'Shovel', 'Mug', 'Towel', 'Pillow', 'Charger'];
const ADJECTIVES = ['Classic', 'Urban', 'Soft', 'Premium', 'Compact', 'Wireless', 'Organic', 'Vintage', 'Slim', 'Heavy-duty', 'Ultralight', 'Waterproof', 'Ergonomic', 'Smart', 'Cozy', 'Eco'];
const COLORS = ['black', 'white', 'red', 'blue', 'green', 'grey', 'beige', 'brown', 'pink', 'navy', 'olive', 'yellow', 'burgundy', 'turquoise', 'silver', 'gold'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL', '36', '37', '38', '39', '40', '41', '42', '43', '44', '46', '48', '50'];
const MATERIALS = ['cotton', 'polyester', 'wool', 'leather', 'steel', 'aluminium', 'glass', 'oak', 'plastic', 'ceramic', 'silicone', 'linen', 'bamboo'];
const COUNTRIES = ['China', 'Germany', 'Italy', 'Poland', 'Turkey', 'Vietnam', 'USA', 'Japan', 'France', 'Spain', 'India', 'Portugal'];
const CITIES = ['Berlin', 'Hamburg', 'Munich', 'Cologne', 'Frankfurt', 'Stuttgart', 'Leipzig', 'Dresden', 'Hanover', 'Nuremberg', 'Bremen', 'Essen', 'Dortmund', 'Bonn', 'Mainz', 'Kiel', 'Rostock', 'Erfurt', 'Potsdam', 'Augsburg'];
const REGIONS = ['North', 'South', 'East', 'West', 'Central'];
const SENTENCES = [
  'Made to last through years of everyday use, with seams reinforced where it matters most.',
  'The clean silhouette pairs with anything in your wardrobe, from office wear to weekend outfits.',
  'Tested by our team for comfort over long days, it keeps its shape after many washes.',
  'A thoughtful design detail: every edge is rounded and every surface easy to clean.',
  'Packed in recyclable cardboard, shipped within two working days from our own warehouse.',
  'Compatible with most standard accessories; see the size chart before ordering.',
  'Energy class A++ and a quiet motor make it a favourite for small apartments.',
  'The set includes a quick-start guide in six languages and a two-year manufacturer warranty.',
  'Customers praise its balance of weight and sturdiness, and the colour stays true in sunlight.',
  'Certified materials, free of harmful substances, produced in a family-run factory.',
  'Fits comfortably into a carry-on bag, so it travels with you wherever you go.',
  'Hand wash recommended; do not tumble dry; iron at low temperature on the reverse side.',
];
const DESCRIPTIONS = Array.from({ length: 64 }, (_, k) => {
  const rnd = mulberry32(9000 + k);
  const count = 1 + Math.floor(rnd() * 4);
  return Array.from({ length: count }, () => pick(rnd, SENTENCES)).join(' ');
});

type ParamSpec = { name: string; unit?: string; numeric?: 'int' | 'decimal'; values?: readonly string[]; low?: number; high?: number; priority?: number; searchable?: boolean };
const PARAMS: ParamSpec[] = [
  { name: 'Color', values: COLORS, priority: 100 },
  { name: 'Material', values: MATERIALS, priority: 90 },
  { name: 'Country of origin', values: COUNTRIES, priority: 10 },
  { name: 'Weight', unit: 'kg', numeric: 'decimal', low: 0.05, high: 40, priority: 50 },
  { name: 'Warranty', unit: 'months', numeric: 'int', low: 6, high: 60, priority: 40 },
  { name: 'Width', unit: 'cm', numeric: 'decimal', low: 1, high: 250, priority: 30 },
  { name: 'Height', unit: 'cm', numeric: 'decimal', low: 1, high: 250, priority: 30 },
  { name: 'Depth', unit: 'cm', numeric: 'decimal', low: 1, high: 120, priority: 20 },
  { name: 'Power', unit: 'W', numeric: 'int', low: 5, high: 3000, priority: 60 },
  { name: 'Volume', unit: 'l', numeric: 'decimal', low: 0.1, high: 80, priority: 45 },
  { name: 'Battery capacity', unit: 'mAh', numeric: 'int', low: 300, high: 20000, priority: 35 },
  { name: 'Screen size', unit: 'in', numeric: 'decimal', low: 1.2, high: 85, priority: 55 },
  { name: 'Style', values: ['casual', 'business', 'sport', 'evening', 'outdoor', 'minimalist', 'retro'], priority: 70 },
  { name: 'Season', values: ['spring', 'summer', 'autumn', 'winter', 'all seasons'], priority: 65 },
  { name: 'Pattern', values: ['plain', 'striped', 'checked', 'floral', 'dotted', 'printed'], priority: 25 },
  { name: 'Fit', values: ['regular', 'slim', 'loose', 'oversize'], priority: 60 },
  { name: 'Connectivity', values: ['Bluetooth', 'Wi-Fi', 'USB-C', 'NFC', 'wired'], priority: 50 },
  { name: 'Age group', values: ['0–1', '1–3', '3–6', '6–12', '12+', 'adult'], priority: 15 },
  { name: 'Care', values: ['machine wash 30°', 'machine wash 40°', 'hand wash', 'dry clean only'], searchable: false },
  { name: 'Package', values: ['box', 'bag', 'blister', 'none'], searchable: false },
  { name: 'Supplier code', values: Array.from({ length: 400 }, (_, i) => `SUP-${1000 + i}`), searchable: false },
  { name: 'Collection', values: ['Spring 2026', 'Summer 2026', 'Autumn 2026', 'Essentials', 'Outlet', 'Limited'], priority: 20 },
  { name: 'Energy class', values: ['A+++', 'A++', 'A+', 'A', 'B', 'C'], priority: 30 },
  { name: 'Gender', values: ['women', 'men', 'unisex', 'girls', 'boys'], priority: 80 },
  { name: 'Pieces', unit: 'pcs', numeric: 'int', low: 1, high: 1000, priority: 10 },
  { name: 'Water resistance', unit: 'm', numeric: 'int', low: 0, high: 300, priority: 10 },
  { name: 'Voltage', unit: 'V', numeric: 'int', low: 3, high: 240, priority: 10 },
  { name: 'Rating (editor)', numeric: 'decimal', low: 1, high: 10, priority: 5 },
  { name: 'Thread count', numeric: 'int', low: 100, high: 1000, priority: 5 },
  { name: 'Features', values: ['dishwasher safe', 'foldable', 'rechargeable', 'vegan', 'recycled', 'handmade', 'quick dry', 'anti-slip'], priority: 40 },
];

function paramValue(rnd: Random, spec: ParamSpec): string | number {
  if (spec.numeric === 'int') return Math.round(spec.low! + rnd() * (spec.high! - spec.low!));
  if (spec.numeric === 'decimal') return cents(spec.low! + rnd() * (spec.high! - spec.low!));
  return spec.values![Math.floor(rnd() * rnd() * spec.values!.length)];
}

function retailParams(rnd: Random, count: number, units = true) {
  const chosen = new Set<number>();
  while (chosen.size < count) chosen.add(Math.floor(rnd() * PARAMS.length));
  return [...chosen].map((k) => {
    const spec = PARAMS[k];
    const value = spec.name === 'Features' ? [paramValue(rnd, spec), paramValue(rnd, spec)] : [paramValue(rnd, spec)];
    return {
      name: spec.name,
      value,
      ...(spec.unit ? { unit: spec.unit } : units && k % 3 === 0 ? { unit: null } : {}),
      ...(units && spec.priority !== undefined ? { priority: spec.priority } : {}),
      ...(spec.searchable === false ? { searchable: false } : units && k % 4 === 0 ? { searchable: true } : {}),
    };
  });
}

/** A three-level tree: departments, their sections, and leaves; about `total` nodes. */
function departmentTree(total: number, idOf: (path: number[]) => string | number, nameOf: (path: number[]) => string): TreeNode[] {
  const out: TreeNode[] = [];
  const sections = 7;
  const leavesEach = Math.max(1, Math.round((total - DEPARTMENTS.length * (1 + sections)) / (DEPARTMENTS.length * sections)));
  for (let a = 0; a < DEPARTMENTS.length; a++) {
    out.push({ id: idOf([a]), name: nameOf([a]), parent: null, url: `https://shop.example/c/${a}` });
    for (let b = 0; b < sections; b++) {
      out.push({ id: idOf([a, b]), name: nameOf([a, b]), parent: idOf([a]), url: `https://shop.example/c/${a}/${b}` });
      for (let c = 0; c < leavesEach; c++) out.push({ id: idOf([a, b, c]), name: nameOf([a, b, c]), parent: idOf([a, b]), url: `https://shop.example/c/${a}/${b}/${c}` });
    }
  }
  return out;
}
const leafIds = (nodes: TreeNode[]) => {
  const parents = new Set(nodes.map((node) => String(node.parent)));
  return nodes.filter((node) => !parents.has(String(node.id))).map((node) => node.id);
};
const rootIds = (nodes: TreeNode[]) => nodes.filter((node) => node.parent === null).map((node) => String(node.id));
const treeName = (path: number[]) =>
  path.length === 1 ? DEPARTMENTS[path[0]] : path.length === 2 ? `${DEPARTMENTS[path[0]]} ${NOUNS[(path[0] * 7 + path[1]) % NOUNS.length]}s` : `${ADJECTIVES[path[2] % ADJECTIVES.length]} ${NOUNS[(path[0] * 7 + path[1]) % NOUNS.length].toLowerCase()}s ${path[2]}`;

/** Regions → cities → stores (and a warehouse per region). */
function storeTree(idOf: (kind: string, k: number) => string): TreeNode[] {
  const out: TreeNode[] = [];
  CITIES.forEach((city, c) => {
    const region = c % REGIONS.length;
    if (c < REGIONS.length) out.push({ id: idOf('region', region), name: `${REGIONS[region]} region`, parent: null, type: 'state' });
  });
  CITIES.forEach((city, c) => {
    out.push({ id: idOf('city', c), name: city, parent: idOf('region', c % REGIONS.length), type: 'city' });
    const stores = 2 + (c % 4);
    for (let s = 0; s < stores; s++) out.push({ id: idOf('store', c * 10 + s), name: `${city} store ${s + 1}`, parent: idOf('city', c), type: 'store' });
  });
  return out;
}

function offersFor(rnd: Random, stores: string[], price: number, count: number) {
  const chosen = new Set<string>();
  while (chosen.size < Math.min(count, stores.length)) chosen.add(pick(rnd, stores));
  return [...chosen].map((location) => {
    const own = rnd() < 0.3;
    return {
      location,
      ...(own ? { price: cents(price * (0.85 + rnd() * 0.3)) } : {}),
      stock_quantity: 1 + Math.floor(rnd() * 40),
      ...(rnd() < 0.5 ? { delivery_types: { store: Math.floor(rnd() * 10), delivery: Math.floor(rnd() * 20) } } : {}),
    };
  });
}

function nicheSection(rnd: Random, n: number): Record<string, unknown> {
  const roll = n % 10;
  if (roll < 2)
    return { fashion: { gender: pick(rnd, ['female', 'male', 'unisex']), type: pick(rnd, ['clothing', 'shoes', 'accessories']), sizes: [pick(rnd, SIZES), pick(rnd, SIZES), pick(rnd, SIZES)], colors: [{ color: pick(rnd, COLORS), picture: `https://cdn.shop.example/swatch/${pick(rnd, COLORS)}.png` }] } };
  if (roll === 2)
    return {
      cosmetic: {
        gender: 'female',
        hypoallergenic: rnd() < 0.5,
        periodic: rnd() < 0.3,
        professional: false,
        skin: { part: ['face', 'neck'], type: [pick(rnd, ['dry', 'oily', 'normal', 'combination'])], condition: ['sensitive'] },
        perfume: { aroma: pick(rnd, ['citrus', 'woody', 'floral']), family: 'fresh' },
      },
    };
  if (roll === 3) return { child: { type: pick(rnd, ['toy', 'clothes', 'stroller']), gender: pick(rnd, ['girl', 'boy', 'unisex']), age: { min: Math.floor(rnd() * 6), max: 6 + Math.floor(rnd() * 8) } } };
  if (roll === 4)
    return {
      auto: {
        vds: `VDS${Math.floor(rnd() * 1e6)}`,
        periodic: false,
        compatibility: Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => ({ brand: pick(rnd, ['Volkswagen', 'BMW', 'Toyota', 'Ford', 'Renault']), model: pick(rnd, ['Golf', 'Polo', 'X3', 'Corolla', 'Focus', 'Clio']) })),
      },
    };
  if (roll === 5) return { book: { author: `${pick(rnd, ['Anna', 'John', 'Marta', 'Paul'])} ${pick(rnd, ['Becker', 'Smith', 'Novak', 'Rossi'])}`, publisher: pick(rnd, ['Penguin', 'Hanser', 'Suhrkamp']), year: 1950 + Math.floor(rnd() * 70), isbn: [`978-3-16-${100000 + (n % 899999)}-0`] } };
  if (roll === 6) return { pets: { periodic: rnd() < 0.5, breed: pick(rnd, ['any', 'small breeds', 'large breeds']), type: pick(rnd, ['dog', 'cat', 'bird']), age: pick(rnd, ['junior', 'adult', 'senior']), size: pick(rnd, ['S', 'M', 'L']) } };
  return {};
}

// ---- retail ---------------------------------------------------------------------------------

const RETAIL_BRANDS = Array.from({ length: 600 }, (_, i) => `${pick(mulberry32(i + 1), ['Nord', 'Alto', 'Vera', 'Kairo', 'Lumen', 'Tessa', 'Orion', 'Brava'])}${['', ' & Co', ' Home', ' Sport', ' Kids', ' Pro'][i % 6]} ${i}`);

function retailShape(): CatalogShape {
  const categories = departmentTree(2070, (path) => path.join('-'), treeName);
  const locations = storeTree((kind, k) => `${kind}-${k}`);
  const leaves = leafIds(categories) as string[];
  const stores = locations.filter((l) => l.type === 'store').map((l) => String(l.id));
  const item = (n: number): ShapeItem => {
    const rnd = mulberry32(n * 104729 + 7);
    const price = cents(1 + rnd() * rnd() * 2999);
    const leaf = pick(rnd, leaves);
    const brand = RETAIL_BRANDS[skewed(rnd, RETAIL_BRANDS.length)];
    const noun = NOUNS[Number(leaf.split('-')[1]) % NOUNS.length];
    const group = Math.floor(n / 4);
    const out: ShapeItem = {
      id: `SKU-${String(n).padStart(7, '0')}`,
      available: rnd() < 0.92,
      categories: rnd() < 0.15 ? [leaf, pick(rnd, leaves)] : [leaf],
      picture: `https://cdn.shop.example/images/products/${n % 1000}/${n}/main-1200x1200.jpg`,
      name: `${brand.split(' ')[0]} ${pick(rnd, ADJECTIVES)} ${noun} ${pick(rnd, COLORS)} ${n % 97}`,
      price,
      url: `https://shop.example/${noun.toLowerCase()}/${n}-${pick(rnd, ADJECTIVES).toLowerCase()}-${noun.toLowerCase()}.html`,
      ...(rnd() < 0.25 ? { oldprice: cents(price * (1.05 + rnd() * 0.7)) } : {}),
      currency: 'EUR',
      group_id: `G${group}`,
      brand,
      vendor_code: `VC-${(n * 7919) % 1_000_003}`,
      barcode: String(4_006_381_000_000 + n),
      model: `${noun.slice(0, 3).toUpperCase()}-${Math.floor(rnd() * 9000) + 1000}`,
      description: DESCRIPTIONS[Math.floor(rnd() * DESCRIPTIONS.length)],
      ...(rnd() < 0.1 ? { merchant: [`Merchant ${Math.floor(rnd() * 40)}`] } : {}),
      stock_quantity: Math.floor(rnd() * 250),
      rating: cents(1 + rnd() * 4),
      price_margin: Math.floor(rnd() * 70),
      sales_rate: undefined,
      tags: [pick(rnd, ['new', 'bestseller', 'sale', 'eco', 'gift']), pick(rnd, ['online only', 'in store', 'limited'])],
      is_new: rnd() < 0.1,
      creation_date: `202${5 + Math.floor(rnd() * 2)}-${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`,
      params: retailParams(rnd, 10 + Math.floor(rnd() * 11)),
      ...nicheSection(rnd, n),
    };
    delete out.sales_rate;
    if (n % 3 === 0) out.locations = offersFor(rnd, stores, price, 1 + Math.floor(rnd() * rnd() * 12));
    return out;
  };
  return {
    name: 'retail',
    categories,
    locations,
    item,
    sentId: (n) => `SKU-${String(n).padStart(7, '0')}`,
    storedId: (n) => `SKU-${String(n).padStart(7, '0')}`,
    stringify: (value) => JSON.stringify(value),
    facets: {
      categories: leaves,
      topCategories: rootIds(categories),
      brands: RETAIL_BRANDS.slice(0, 200),
      params: [
        ['Color', COLORS.slice()],
        ['Material', MATERIALS.slice()],
        ['Style', ['casual', 'business', 'sport', 'evening']],
        ['Season', ['summer', 'winter', 'all seasons']],
      ],
      cities: locations.filter((l) => l.type === 'city').map((l) => String(l.id)),
      words: [...NOUNS.map((w) => w.toLowerCase()), ...ADJECTIVES.map((w) => w.toLowerCase())],
    },
  };
}

// ---- magento --------------------------------------------------------------------------------

/** PHP's json_encode without flags: every `/` as `\/`, every character past ASCII as `\uXXXX`. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('/', '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const MAGENTO_BRANDS = Array.from({ length: 180 }, (_, i) => `${pick(mulberry32(500 + i), ['Bosch', 'Müller', 'Škoda Parts', 'Lärm', 'Grün', 'Weiß', 'Kärcher', 'Zeiß'])} ${i}`);

function magentoShape(): CatalogShape {
  // Magento's entity ids: integers, the root catalog (id 2) never exported, so the departments hang under an unknown parent.
  const entityIds = new Map<string, number>();
  const entityId = (path: number[]) => {
    const key = path.join('/');
    if (!entityIds.has(key)) entityIds.set(key, 3 + entityIds.size);
    return entityIds.get(key)!;
  };
  const categories = departmentTree(800, entityId, treeName).map((node) => (node.parent === null ? { ...node, parent: 2 } : node));
  const parentOf = new Map(categories.map((node) => [node.id, node.parent as number]));
  const locations: TreeNode[] = [];
  const leaves = leafIds(categories) as number[];
  const item = (n: number): ShapeItem => {
    const rnd = mulberry32(n * 15485863 + 3);
    const price = cents(5 + rnd() * rnd() * 1500);
    const leaf = pick(rnd, leaves);
    const noun = NOUNS[leaf % NOUNS.length];
    const special = rnd() < 0.3;
    const withParams = n % 2 === 0;
    return {
      id: 10_000 + n,
      available: rnd() < 0.85 ? Math.floor(1 + rnd() * 500) : 0,
      categories: rnd() < 0.4 ? [leaf, parentOf.get(leaf)!] : [leaf],
      picture: `https://magento.example/media/catalog/product/cache/1/image/1200x/9df78eab33525d08d6e5fb8d27136e95/${n % 10}/${n % 7}/${noun.toLowerCase()}-${n}.jpg`,
      name: `${MAGENTO_BRANDS[skewed(rnd, MAGENTO_BRANDS.length)].split(' ')[0]} ${noun} „${pick(rnd, ADJECTIVES)}“ ${n % 50} – ${pick(rnd, COLORS)}`,
      price: special ? cents(price * 0.8) : price,
      oldprice: special ? price : null,
      url: `https://magento.example/${noun.toLowerCase()}-${n}.html`,
      currency: 'EUR',
      group_id: n % 5 === 0 ? null : String(10_000 + n - (n % 5)),
      brand: MAGENTO_BRANDS[skewed(rnd, MAGENTO_BRANDS.length)],
      vendor_code: `M${10_000 + n}`,
      barcode: rnd() < 0.5 ? String(4_006_381_000_000 + n) : null,
      model: null,
      description: `<p>${DESCRIPTIONS[Math.floor(rnd() * DESCRIPTIONS.length)]}</p><ul><li>Größe: ${pick(rnd, SIZES)}</li><li>Material: ${pick(rnd, MATERIALS)}</li></ul>`,
      stock_quantity: Math.floor(rnd() * 500),
      rating: null,
      price_margin: null,
      params: withParams
        ? retailParams(rnd, 4 + Math.floor(rnd() * 6), false).map((p) => ({ ...p, value: p.value.map(String) }))
        : [],
      ...(rnd() < 0.2 ? { fashion: { gender: pick(rnd, ['female', 'male']), sizes: [Number(pick(rnd, SIZES.slice(6)))], colors: [{ color: pick(rnd, COLORS) }] } } : {}),
    };
  };
  return {
    name: 'magento',
    categories,
    locations,
    item,
    sentId: (n) => 10_000 + n,
    storedId: (n) => String(10_000 + n),
    stringify: phpJson,
    facets: {
      categories: leaves.map(String),
      topCategories: categories.filter((c) => c.parent === 2).map((c) => String(c.id)),
      brands: MAGENTO_BRANDS.slice(0, 60),
      params: [
        ['Color', COLORS.slice()],
        ['Material', MATERIALS.slice()],
      ],
      cities: [],
      words: NOUNS.map((w) => w.toLowerCase()),
    },
  };
}

// ---- shopware -------------------------------------------------------------------------------

/** A 32-hex id, as Shopware's UUIDs are sent. */
function hexId(seed: number): string {
  const rnd = mulberry32(seed);
  let out = '';
  for (let i = 0; i < 4; i++) out += Math.floor(rnd() * 0x1_0000_0000).toString(16).padStart(8, '0');
  return out;
}

function shopwareShape(): CatalogShape {
  const categories = departmentTree(1200, (path) => hexId(7_000_000 + path.reduce((id, k) => id * 64 + k + 1, 0)), treeName).map((node) => ({ id: node.id, name: node.name, parent: node.parent }));
  const locations = storeTree((kind, k) => hexId((kind === 'region' ? 1 : kind === 'city' ? 2 : 3) * 100_000 + k));
  const leaves = leafIds(categories) as string[];
  const warehouses = locations.filter((l) => l.type === 'store').map((l) => String(l.id));
  const brands = Array.from({ length: 350 }, (_, i) => `${pick(mulberry32(900 + i), ['Shopware', 'Nordic', 'Alpin', 'Rhein', 'Ostsee', 'Eifel'])} ${pick(mulberry32(1900 + i), ['GmbH', 'AG', 'Manufaktur', 'Design'])} ${i}`);
  const item = (n: number): ShapeItem => {
    const rnd = mulberry32(n * 2654435761 + 11);
    const price = cents(2 + rnd() * rnd() * 800);
    const leaf = pick(rnd, leaves);
    const withParams = n % 2 === 1;
    const out: ShapeItem = {
      id: hexId(n + 1),
      available: rnd() < 0.8 ? Math.floor(1 + rnd() * 120) : 0,
      categories: [leaf],
      picture: `https://shopware.example/media/${hexId(n + 2).slice(0, 2)}/${hexId(n + 2).slice(2, 4)}/${hexId(n + 2).slice(4, 6)}/${n}.jpg`,
      name: `${pick(rnd, ADJECTIVES)} ${pick(rnd, NOUNS)} ${pick(rnd, MATERIALS)} ${n % 300}`,
      price,
      url: `https://shopware.example/detail/${hexId(n + 1)}`,
      ...(rnd() < 0.2 ? { oldprice: cents(price * 1.25) } : {}),
      currency: 'EUR',
      ...(n % 6 < 4 ? { group_id: hexId(Math.floor(n / 6) + 50_000_000) } : {}),
      brand: brands[skewed(rnd, brands.length)],
      vendor_code: `SW${100_000 + n}`,
      description: DESCRIPTIONS[Math.floor(rnd() * DESCRIPTIONS.length)],
      stock_quantity: Math.floor(rnd() * 120),
      gift: rnd() < 0.05,
      ...(withParams ? { params: retailParams(rnd, 6 + Math.floor(rnd() * 10)) } : {}),
    };
    if (n % 4 === 0) out.locations = offersFor(rnd, warehouses, price, 1 + Math.floor(rnd() * 5));
    return out;
  };
  return {
    name: 'shopware',
    categories,
    locations,
    item,
    sentId: (n) => hexId(n + 1),
    storedId: (n) => hexId(n + 1),
    stringify: (value) => JSON.stringify(value).replaceAll('/', '\\/'),
    facets: {
      categories: leaves,
      topCategories: rootIds(categories),
      brands: brands.slice(0, 100),
      params: [
        ['Color', COLORS.slice()],
        ['Style', ['casual', 'business', 'sport']],
      ],
      cities: locations.filter((l) => l.type === 'city').map((l) => String(l.id)),
      words: MATERIALS.slice(),
    },
  };
}

// ---- wide text ------------------------------------------------------------------------------

const WIDE_NAMES = ['Платье летнее', 'Кроссовки беговые', 'Φόρεμα καλοκαιρινό', '保温杯 不锈钢', '无线耳机 降噪', 'Чайник электрический', 'Rucksack „Bergfreund“', 'Çanta deri', 'Ковёр шерстяной', 'Lampe à poser', '双肩包 旅行', 'Κούπα κεραμική'];
const WIDE_BRANDS = Array.from({ length: 240 }, (_, i) => `${['Лето', 'Восток', 'Ἀθηνᾶ', '山田', 'Ökö', 'Željko', 'Süd'][i % 7]} ${i}`);
const EMOJI = ['🔥', '✨', '👗', '👟', '☕', '🎧', '🏔️', '💡', '🐾', '🌿'];

function wideTextShape(): CatalogShape {
  const categories = departmentTree(1500, (path) => `cat/${path.join('/')}`, (path) => `${treeName(path)} · ${['Одежда', 'Дом', 'Κουζίνα', '电子', 'Sport'][path[0] % 5]}`);
  const locations = storeTree((kind, k) => `${kind}:${k}`).map((l) => ({ ...l, name: `${l.name} (${['Москва', 'Αθήνα', '上海', 'Kraków'][String(l.id).length % 4]})` }));
  const leaves = leafIds(categories) as string[];
  const stores = locations.filter((l) => l.type === 'store').map((l) => String(l.id));
  const item = (n: number): ShapeItem => {
    const rnd = mulberry32(n * 40503 + 5);
    const price = cents(10 + rnd() * rnd() * 90_000);
    const paragraphs = 3 + Math.floor(rnd() * 8);
    const description = Array.from({ length: paragraphs }, (_, p) => {
      const sentence = DESCRIPTIONS[(n + p * 7) % DESCRIPTIONS.length];
      return `<p class="desc-${p}">${sentence} ${pick(rnd, EMOJI)} «${pick(rnd, WIDE_NAMES)}» — "${pick(rnd, ADJECTIVES)}" ${pick(rnd, ['Качество проверено.', '品质保证。', 'Ποιότητα εγγυημένη.', 'Qualité garantie.'])}</p>\n`;
    }).join('');
    const out: ShapeItem = {
      id: `w-${n}`,
      available: rnd() < 0.9,
      categories: [pick(rnd, leaves)],
      picture: `https://img.shop.example/w/${n}.webp`,
      name: `${pick(rnd, WIDE_NAMES)} ${pick(rnd, EMOJI)} "${pick(rnd, ADJECTIVES)}" №${n}`,
      price,
      url: `https://shop.example/товар/${n}?utm=feed`,
      ...(rnd() < 0.3 ? { oldprice: cents(price * 1.3) } : {}),
      currency: 'RUB',
      group_id: `wg${Math.floor(n / 2)}`,
      brand: WIDE_BRANDS[skewed(rnd, WIDE_BRANDS.length)],
      model: `«${pick(rnd, NOUNS)}» ${n % 1000}`,
      description,
      stock_quantity: Math.floor(rnd() * 50),
      rating: cents(1 + rnd() * 4),
      params: [
        { name: 'Цвет', value: [pick(rnd, ['красный', 'синий', 'чёрный', 'белый', 'зелёный'])] },
        { name: 'Материал', value: [pick(rnd, ['хлопок', 'шерсть', 'кожа', '聚酯纤维', 'λινό'])] },
        { name: 'Вес', value: [cents(rnd() * 20)], unit: 'кг' },
        { name: '产地', value: [pick(rnd, ['中国', '日本', 'Ελλάδα', 'Россия'])] },
        { name: 'Описание "размера"', value: [`${pick(rnd, SIZES)} (EU) — "${pick(rnd, ['slim', 'regular'])}"`] },
      ],
      ...(n % 5 === 0 ? { fashion: { gender: 'female', sizes: [pick(rnd, SIZES)], colors: [{ color: pick(rnd, ['красный', 'синий', '黑色']) }] } } : {}),
    };
    if (n % 4 === 0) out.locations = offersFor(rnd, stores, price, 1 + Math.floor(rnd() * 6));
    return out;
  };
  return {
    name: 'wide-text',
    categories,
    locations,
    item,
    sentId: (n) => `w-${n}`,
    storedId: (n) => `w-${n}`,
    // Python's json.dumps with ensure_ascii=False: a space after every `:` and `,`.
    stringify: (value) => pythonJson(value),
    facets: {
      categories: leaves,
      topCategories: rootIds(categories),
      brands: WIDE_BRANDS.slice(0, 80),
      params: [
        ['Цвет', ['красный', 'синий', 'чёрный', 'белый', 'зелёный']],
        ['Материал', ['хлопок', 'шерсть', 'кожа']],
      ],
      cities: locations.filter((l) => l.type === 'city').map((l) => String(l.id)),
      words: ['платье', 'чайник', '耳机', 'premium', 'classic'],
    },
  };
}

/** JSON as Python's json.dumps(value, ensure_ascii=False) writes it: `", "` and `": "`. */
export function pythonJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  const members = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${members.map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(', ')}}`;
}

// ---- synthetic ------------------------------------------------------------------------------

function syntheticShape(): CatalogShape {
  const categories = syntheticCategories();
  const locations = syntheticLocations();
  const leaves = leafCategories(categories);
  return {
    name: 'synthetic',
    categories,
    locations,
    item: (n) => syntheticItem(n, leaves, locations),
    sentId: (n) => `p${n}`,
    storedId: (n) => `p${n}`,
    stringify: (value) => JSON.stringify(value),
    facets: {
      categories: leaves,
      topCategories: rootIds(categories),
      brands: Array.from({ length: 100 }, (_, i) => `Brand ${i}`),
      params: [
        ['param_10', Array.from({ length: 12 }, (_, i) => `param_10_v${i}`)],
        ['param_11', Array.from({ length: 12 }, (_, i) => `param_11_v${i}`)],
      ],
      cities: locations.filter((l) => l.type === 'city').map((l) => l.id),
      words: ['classic', 'soft', 'urban', 'premium', 'wool'],
    },
  };
}

const SHAPES: Record<ShapeName, () => CatalogShape> = {
  synthetic: syntheticShape,
  retail: retailShape,
  magento: magentoShape,
  shopware: shopwareShape,
  'wide-text': wideTextShape,
};

export function catalogShape(name: ShapeName): CatalogShape {
  return SHAPES[name]();
}
