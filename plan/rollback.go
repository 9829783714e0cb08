package plan

import (
	"github.com/rolloutplan/rolloutplan/model"
	"github.com/rolloutplan/rolloutplan/revision"
)

// rollback honours the legacy rollback annotation (upstream rollback (legacy rollback annotation)). Like
// upstream it first finds or creates the new ReplicaSet of the current
// template (upstream quirk: the legacy rollback creates a ReplicaSet for the abandoned template), then rewrites the Deployment's template and clears
// the annotation with a full update.
func (s *syncer) rollback(rsList []*model.ReplicaSet) {
	d := s.d
	target, _ := rollbackTo(d)
	newRS, oldRSs, ok := s.getAllReplicaSetsAndSyncRevision(rsList, !s.cfg.rollbackNoCreate)
	if !ok {
		return
	}
	all := appendRS(oldRSs, newRS)
	if target == 0 {
		target = revision.LastRevision(all)
		if target == 0 {
			s.event(model.EventTypeWarning, model.EventDeploymentRollbackRevisionNotFound, "Unable to find last revision.")
			s.clearRollbackTo(reason(ReasonRollback, nil, "no previous revision to roll back to: the request is dropped"))
			return
		}
	}
	for _, rs := range all {
		rev, err := revision.Revision(rs.Annotations)
		if err != nil || rev != target {
			continue
		}
		if model.EqualIgnoreHash(d.Spec.Template, rs.Spec.Template) {
			s.event(model.EventTypeWarning, model.EventDeploymentRollbackTemplateUnchanged,
				"The rollback revision contains the same template as current deployment %q", d.Name)
			s.clearRollbackTo(reason(ReasonRollback, vals(v("revision", target)),
				"revision %d already has the current template: the request is dropped", target))
			return
		}
		setFromReplicaSetTemplate(d, rs.Spec.Template)
		s.templateReplaced = true
		revision.SetDeploymentAnnotationsTo(d, rs) // a new map: the working copy's own
		s.annotationsOwned = true
		s.clearRollbackTo(reason(ReasonRollback, vals(v("revision", target)),
			"the template of revision %d (%s) becomes the Deployment's", target, rs.Name))
		s.event(model.EventTypeNormal, model.EventDeploymentRollback, "Rolled back deployment %q to revision %d", d.Name, target)
		return
	}
	s.event(model.EventTypeWarning, model.EventDeploymentRollbackRevisionNotFound, "Unable to find the revision to rollback to.")
	s.clearRollbackTo(reason(ReasonRollback, vals(v("revision", target)),
		"revision %d does not exist: the request is dropped", target))
}

// setFromReplicaSetTemplate copies a ReplicaSet's template into the
// Deployment, without the pod-template-hash label (the labels are copied
// once, leaving it out).
func setFromReplicaSetTemplate(d *model.Deployment, t model.PodTemplate) {
	labels := make(map[string]string, len(t.Labels))
	for k, v := range t.Labels {
		if k != model.PodTemplateHashLabel {
			labels[k] = v
		}
	}
	t.Labels = nil
	d.Spec.Template = t.DeepCopy()
	d.Spec.Template.Labels = labels
}

func (s *syncer) clearRollbackTo(why Reason) {
	s.ownAnnotations()
	delete(s.d.Annotations, model.RollbackToAnnotation)
	s.writeDeployment(UpdateDeployment, why)
}
