/**
 * Up to two capital letters for an avatar circle: the first letters of the first two words of a
 * name ('amina.juma' → 'AJ'), or its first two letters when it is one word ('kevin' → 'KE').
 */
export function initials(name: string): string {
  const parts = name
    .trim()
    .split(/[\s._-]+/)
    .filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]![0]}${parts[1]![0]}` : name.trim().slice(0, 2);
  return letters.toUpperCase();
}
