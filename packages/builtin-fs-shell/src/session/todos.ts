/** Status of a todo item. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One item of a session's task list. */
export interface TodoItem {
  readonly id: string;
  readonly content: string;
  readonly status: TodoStatus;
  readonly priority?: 'high' | 'medium' | 'low';
}
