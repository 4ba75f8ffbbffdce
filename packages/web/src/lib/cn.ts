/** Joins class names, skipping false, null and undefined (a tiny clsx). */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}
