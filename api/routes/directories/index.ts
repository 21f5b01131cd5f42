import { createDirectoryRoute } from './createDirectory.ts';
import { deleteDirectoryRoute } from './deleteDirectory.ts';
import { getDirectoryRoute } from './getDirectory.ts';
import { listDirectoriesRoute } from './listDirectories.ts';
import { rotateDirectoryTokenRoute } from './rotateDirectoryToken.ts';
import { updateDirectoryRoute } from './updateDirectory.ts';

export const directoryRoutes = [createDirectoryRoute, listDirectoriesRoute, getDirectoryRoute, updateDirectoryRoute, rotateDirectoryTokenRoute, deleteDirectoryRoute];
