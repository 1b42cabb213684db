/**
 * A binary min-heap. The simulator's indexes (best price of a book side, next expiring order) are
 * heaps with lazy deletion: an entry whose item left is dropped when it reaches the top, so removing
 * an order costs nothing and finding the best one is O(log n). The order is a method of a subclass, not
 * a closure, so a heap is plain data that the simulator's saved state holds.
 */
export abstract class MinHeap<T> {
  private items: T[] = [];

  protected abstract less(a: T, b: T): boolean;

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    let i = items.push(item) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Keeps only the entries that pass (to drop accumulated dead entries in one pass). */
  retain(keep: (item: T) => boolean): void {
    this.rebuild(this.items.filter(keep));
  }

  /** Replaces the content. */
  rebuild(items: T[]): void {
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftDown(i: number): void {
    const items = this.items;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && this.less(items[left]!, items[smallest]!)) smallest = left;
      if (right < items.length && this.less(items[right]!, items[smallest]!)) smallest = right;
      if (smallest === i) return;
      [items[i], items[smallest]] = [items[smallest]!, items[i]!];
      i = smallest;
    }
  }
}
