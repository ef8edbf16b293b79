/** The shop's one layout: a bare HTML page. */
import type { ReactNode } from 'react';

export const metadata = { title: 'Our pets' };

/**
 * Wraps every page in `<html>` and `<body>`.
 *
 * @example
 * <RootLayout><Page /></RootLayout>
 */
export default function RootLayout({ children }: { readonly children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
