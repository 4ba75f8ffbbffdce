/** Dragging a project card onto a folder of the sidebar (HTML drag and drop). */

/** The drag data type of a project; its value is the project id. */
export const PROJECT_DRAG_TYPE = 'application/x-wolfpack-project';

export function setProjectDragData(data: DataTransfer, projectId: string, title: string): void {
  data.setData(PROJECT_DRAG_TYPE, projectId);
  data.setData('text/plain', title);
  data.effectAllowed = 'move';
}

/** Whether a drag carries a project (the id itself can only be read on drop). */
export function isProjectDrag(data: DataTransfer): boolean {
  return Array.from(data.types).includes(PROJECT_DRAG_TYPE);
}

/** The dragged project's id on drop, if the drag carries one. */
export function droppedProjectId(data: DataTransfer): string | undefined {
  const id = data.getData(PROJECT_DRAG_TYPE);
  return id ? id : undefined;
}
