/** An enum in a module of its own, so CommonJS output refers to it as enums_1.Priority. */
export enum Priority {
  Low = 'low',
  Normal = 'normal',
  Urgent = 'urgent',
}
