import { expect, it } from 'vitest';
import { safeReturnPath, signInPath } from './return-path';

it('returns only to pages of the admin app', () => {
  expect(safeReturnPath('/admin/shops/abc/imports?status=failed')).toBe('/admin/shops/abc/imports?status=failed');
  expect(safeReturnPath('/admin')).toBe('/admin');
  for (const elsewhere of ['https://evil.example/admin', '//evil.example/admin', '/administrator', '/admin/api/session', '/admin/login?next=/x', '/admin/\\evil', '', null, undefined]) {
    expect(safeReturnPath(elsewhere), String(elsewhere)).toBe('/admin');
  }
});

it('names the page to return to in the sign-in address', () => {
  expect(signInPath('/admin/shops/a b/imports?x=1')).toBe('/admin/login?next=%2Fadmin%2Fshops%2Fa%20b%2Fimports%3Fx%3D1');
  expect(signInPath('/admin')).toBe('/admin/login');
  expect(signInPath('http://evil.example')).toBe('/admin/login');
  expect(signInPath('/admin/shops/x', true)).toBe('/admin/login?next=%2Fadmin%2Fshops%2Fx&expired=1');
});
