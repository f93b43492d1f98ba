import { useEffect, useRef, type RefObject } from 'react';

/**
 * A ref holding `value` as of the last commit, for handlers that must judge by what is now, not by
 * what the render that made them saw (keys, commands).
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}
