import type { ReactNode } from 'react';

/** Props of a banner: its tone decides colour and ARIA role. */
export interface BannerProps {
  readonly tone: 'warning' | 'error';
  readonly children: ReactNode;
  readonly testId?: string;
}

/** A message across the top of a window (load problems, lost connection). */
export function Banner({ tone, children, testId }: BannerProps) {
  return (
    <div className={`banner banner-${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}
