import type { ReactNode } from 'react';

/** Props of a one-message window body. */
export interface CenteredMessageProps {
  readonly title: string;
  readonly children?: ReactNode;
}

/** A small window whose whole content is one honest message (no fake controls). */
export function CenteredMessage({ title, children }: CenteredMessageProps) {
  return (
    <main className="centered">
      <h1>{title}</h1>
      {children}
    </main>
  );
}
