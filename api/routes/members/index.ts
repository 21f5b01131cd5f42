import { deactivateMemberRoute } from './deactivateMember.ts';
import { getMemberRoute } from './getMember.ts';
import { listMembersRoute } from './listMembers.ts';
import { putMemberRoute } from './putMember.ts';
import { reactivateMemberRoute } from './reactivateMember.ts';
import { removeMemberRoute } from './removeMember.ts';
import { setBreakGlassRoute } from './setBreakGlass.ts';

export const memberRoutes = [listMembersRoute, getMemberRoute, putMemberRoute, removeMemberRoute, deactivateMemberRoute, reactivateMemberRoute, setBreakGlassRoute];
