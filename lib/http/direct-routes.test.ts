import { expect, it } from 'vitest';
import { matchDirectRoute, type DirectRoute } from './direct-routes';

const listing = () => new Response('listing');
const collection = () => new Response('collection');
const routes: DirectRoute[] = [
  { method: 'GET', path: '/products', handler: listing },
  { method: 'GET', path: '/collection/:id', handler: collection },
];

it('matches a route by method and path, decoding its dynamic segment, and leaves the rest to Next.js', () => {
  expect(matchDirectRoute(routes, 'GET', '/products')).toEqual({ handler: listing, params: {} });
  expect(matchDirectRoute(routes, 'GET', '/collection/%31%20a')).toEqual({ handler: collection, params: { id: '1 a' } });
  for (const [method, path] of [['POST', '/products'], ['HEAD', '/products'], ['GET', '/products/x'], ['GET', '/collection'], ['GET', '/collection/'], ['GET', '/collection/1/x'], ['GET', '/Products']]) {
    expect(matchDirectRoute(routes, method, path), `${method} ${path}`).toBeUndefined();
  }
});
