import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** The terminal's width in columns, following resizes (80 when unknown). */
export function useWidth(): number {
  const { stdout } = useStdout();
  const [width, setWidth] = useState(stdout.columns || 80);
  useEffect(() => {
    const onResize = (): void => setWidth(stdout.columns || 80);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return width;
}
