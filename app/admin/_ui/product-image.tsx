'use client';

import { useState } from 'react';

type Props = { src: string | undefined; alt: string; size: number; className?: string };

/**
 * A product picture from the service's resizer, or a quiet "No picture" box of the same size when
 * there is none or it cannot be loaded (the shop's original is gone or unreachable): a broken-image
 * icon tells a store manager nothing.
 */
export function ProductImage({ src, alt, size, className = '' }: Props) {
  const [failed, setFailed] = useState(false);
  const box = `aspect-square rounded bg-slate-100 ${className}`;
  if (!src || failed) {
    return (
      <div role={alt ? 'img' : undefined} aria-label={alt ? `${alt}: no picture` : undefined} style={{ width: size, maxWidth: '100%' }} className={`${box} flex items-center justify-center text-xs text-slate-600`} data-testid="no-picture">
        No picture
      </div>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- the service's own resizer
    <img
      src={src}
      alt={alt}
      width={size}
      height={size}
      loading="lazy"
      // An image that failed before React attached its handler is caught here.
      ref={(img) => {
        if (img && img.complete && img.naturalWidth === 0) setFailed(true);
      }}
      onError={() => setFailed(true)}
      style={{ width: size, maxWidth: '100%' }}
      className={`${box} object-contain`}
    />
  );
}
